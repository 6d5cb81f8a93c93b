"""The test suite of polyroc (a package, so that test modules of the same name in different folders do not collide)."""

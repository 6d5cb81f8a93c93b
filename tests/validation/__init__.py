"""Tests of polyroc._validation: the input checks, their messages and the declared parameter constraints."""

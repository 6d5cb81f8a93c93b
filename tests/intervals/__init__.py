"""Tests of the interval methods: DeLong, posterior, proportion and paired intervals, the bootstrap, stopping."""

"""Helpers shared by the tests: marks, strategies, builders, threads and workloads."""

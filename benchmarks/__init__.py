"""Benchmark scripts: figures printed, never asserted."""

"""Generators of puzzles and pictures with known ground truth, for tests and benchmarks."""

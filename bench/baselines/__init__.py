"""Baseline solvers the benchmark measures gridsight against (written for this project)."""

"""Training of the recognizer's shipped models from the project's own synthetic data.

Kept above both the generator (gridsight.synth) and the recognizer library (services/),
so that the recognizer never depends on the generator.
"""

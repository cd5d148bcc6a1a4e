"""Typed, frozen descriptions of what a job runs (a leaf package: stdlib and typing only).

The API builds them (operators.py, partitioning.py, sources.py, sinks.py), the graph compiler
puts them into stages (stage.py), and the runtime's registry (runtime/registry.py) turns each
operator spec into the operator that runs it inside a task.
"""

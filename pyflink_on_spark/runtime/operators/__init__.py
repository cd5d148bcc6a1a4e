"""The engine's operator primitives."""

"""The window primitive: Flink's WindowOperator on the engine's keyed state and timers."""

"""Configuration the command line gives every environment a script creates, as Flink's CLI
puts `flink run -s PATH -n` into the job's configuration (execution.savepoint.path,
execution.savepoint.ignore-unclaimed-state). The program's own configuration
(get_execution_environment(config), env.configure) is applied after it and wins."""
from __future__ import annotations

from typing import Dict, Mapping

_items: Dict[str, str] = {}


def set_launch_configuration(items: Mapping[str, str]) -> None:
    _items.clear()
    _items.update(items)


def launch_configuration() -> Dict[str, str]:
    return dict(_items)

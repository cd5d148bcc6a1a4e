"""StreamExecutionEnvironment.configure(Configuration): each key PyFlink's environment reads
is applied to the shim's environment (observed on PyFlink 1.20.5: after configure,
is_chaining_enabled(), get_max_parallelism(), get_buffer_timeout(), get_checkpoint_interval()
... report the configured values). A key with no effect on Spark is reported once on stderr,
so a setting is never silently dropped.
"""
import re
import sys
from typing import Callable, Dict

_DURATION = re.compile(r"^\s*(\d+)\s*([a-zµ]*)\s*$")
_UNIT_MILLIS = {
    "": 1, "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
    "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
    "m": 60000, "min": 60000, "mins": 60000, "minute": 60000, "minutes": 60000,
    "h": 3600000, "hour": 3600000, "hours": 3600000,
    "d": 86400000, "day": 86400000, "days": 86400000,
}


def parse_millis(key: str, text: str) -> int:
    """Flink's TimeUtils.parseDuration in milliseconds ("50 ms", "5 s", "1 min", "200")."""
    match = _DURATION.match(text.lower())
    if match is None or match.group(2) not in _UNIT_MILLIS:
        raise ValueError("Could not parse value '%s' for key '%s' (a duration such as "
                         "'500 ms', '5 s' or '1 min')" % (text, key))
    return int(match.group(1)) * _UNIT_MILLIS[match.group(2)]


def _parse_bool(key: str, text: str) -> bool:
    lowered = text.strip().lower()
    if lowered not in ("true", "false"):
        raise ValueError("Could not parse value '%s' for key '%s' (true or false)"
                         % (text, key))
    return lowered == "true"


def _parse_list(text: str):
    return [item.strip() for item in text.split(";") if item.strip()]


def _parse_map(text: str) -> Dict[str, str]:
    entries = {}
    for item in text.split(","):
        if item.strip():
            k, _, v = item.partition(":")
            entries[k.strip()] = v.strip()
    return entries


def _runtime_mode(env, key, value):
    from pyflink_on_spark.datastream.execution_mode import RuntimeExecutionMode
    env.set_runtime_mode(RuntimeExecutionMode[value.strip().upper()])


def _chaining(env, key, value):
    env._chaining = _parse_bool(key, value)


def _object_reuse(env, key, value):
    if _parse_bool(key, value):
        env.get_config().enable_object_reuse()
    else:
        env.get_config().disable_object_reuse()


def _checkpoint_interval(env, key, value):
    env.enable_checkpointing(parse_millis(key, value))


def _checkpointing_mode(env, key, value):
    from pyflink_on_spark.datastream.checkpointing_mode import CheckpointingMode
    env.get_checkpoint_config().set_checkpointing_mode(
        CheckpointingMode[value.strip().upper().replace("-", "_")])


def _time_characteristic(env, key, value):
    from pyflink_on_spark.datastream.time_characteristic import TimeCharacteristic
    env.set_stream_time_characteristic(TimeCharacteristic[value.strip()])


def _checkpoint_setting(setter: str, parse: Callable) -> Callable:
    """A CheckpointConfig setter applied to the parsed value (PyFlink's CheckpointConfig
    reads these keys from the environment's configuration: its getters report them)."""
    def apply(env, key, value):
        getattr(env.get_checkpoint_config(), setter)(parse(key, value))
    return apply


def _retention(key, value):
    from pyflink_on_spark.datastream.checkpoint_config import ExternalizedCheckpointCleanup
    return ExternalizedCheckpointCleanup[value.strip().upper().replace("-", "_")]


def _state_backend(env, key, value):
    from pyflink_on_spark.datastream.state_backend import (
        EmbeddedRocksDBStateBackend, HashMapStateBackend)
    kind = value.strip().lower()
    if kind == "hashmap":
        env.set_state_backend(HashMapStateBackend())
    elif kind == "rocksdb":
        env.set_state_backend(EmbeddedRocksDBStateBackend())
    else:
        raise ValueError("state.backend.type %r: supported are 'hashmap' and 'rocksdb'"
                         % (value,))


_APPLY: Dict[str, Callable] = {
    "execution.runtime-mode": _runtime_mode,
    "parallelism.default": lambda env, k, v: env.set_parallelism(int(v)),
    "pipeline.max-parallelism": lambda env, k, v: env.set_max_parallelism(int(v)),
    "pipeline.operator-chaining": _chaining,
    "pipeline.operator-chaining.enabled": _chaining,
    "pipeline.object-reuse": _object_reuse,
    "pipeline.auto-watermark-interval":
        lambda env, k, v: env.get_config().set_auto_watermark_interval(parse_millis(k, v)),
    "execution.buffer-timeout":
        lambda env, k, v: env.set_buffer_timeout(parse_millis(k, v)),
    "execution.checkpointing.interval": _checkpoint_interval,
    "execution.checkpointing.mode": _checkpointing_mode,
    "execution.checkpointing.timeout": _checkpoint_setting("set_checkpoint_timeout", parse_millis),
    "execution.checkpointing.min-pause":
        _checkpoint_setting("set_min_pause_between_checkpoints", parse_millis),
    "execution.checkpointing.max-concurrent-checkpoints":
        _checkpoint_setting("set_max_concurrent_checkpoints", lambda k, v: int(v)),
    "execution.checkpointing.tolerable-failed-checkpoints":
        _checkpoint_setting("set_tolerable_checkpoint_failure_number", lambda k, v: int(v)),
    "execution.checkpointing.unaligned":
        _checkpoint_setting("enable_unaligned_checkpoints", _parse_bool),
    "execution.checkpointing.unaligned.enabled":
        _checkpoint_setting("enable_unaligned_checkpoints", _parse_bool),
    "execution.checkpointing.externalized-checkpoint-retention":
        _checkpoint_setting("set_externalized_checkpoint_cleanup", _retention),
    "pipeline.time-characteristic": _time_characteristic,
    "pipeline.global-job-parameters":
        lambda env, k, v: env.get_config().set_global_job_parameters(_parse_map(v)),
    "state.backend.type": _state_backend,
    "state.backend": _state_backend,
    "pipeline.jars": lambda env, k, v: env.add_jars(*_parse_list(v)),
    "pipeline.classpaths": lambda env, k, v: env.add_classpaths(*_parse_list(v)),
    "python.files": lambda env, k, v: [env.add_python_file(f) for f in v.split(",") if f],
    "python.requirements": lambda env, k, v: env.set_python_requirements(
        *v.split("#", 1)),
    "python.executable": lambda env, k, v: env.set_python_executable(v),
    "python.archives": lambda env, k, v: [env.add_python_archive(*a.split("#", 1))
                                          for a in v.split(",") if a],
}

# read by the shim elsewhere, or harmless to keep without acting on them
_KEPT = ("pipeline.name", "execution.runtime-mode",
         # savepoints: read when the job is compiled (stream_execution_environment)
         "execution.state-recovery.path", "execution.savepoint.path",
         "execution.state-recovery.ignore-unclaimed-state",
         "execution.savepoint.ignore-unclaimed-state",
         "execution.checkpointing.savepoint-dir", "state.savepoints.dir",
         "pyflink-on-spark.backfill.savepoint-dir")

_reported = set()


def apply_configuration(env, items: Dict[str, str]) -> None:
    for key, value in items.items():
        apply = _APPLY.get(key)
        if apply is not None:
            apply(env, key, value)
        elif key.startswith("metrics.reporter."):
            continue    # read when an unbounded job starts (spark/streaming/metrics_reporting)
        elif key not in _KEPT and key not in _reported:
            _reported.add(key)
            print("pyflink_on_spark: configuration key '%s' has no effect when running on "
                  "Spark (kept in the environment's configuration)" % key, file=sys.stderr)

"""The jars Ivy resolved for the connector packages the shim adds (spark.jars.packages), kept
so that the next session start passes them as spark.jars and skips Ivy.

Spark resolves spark.jars.packages with Ivy at every JVM start, even when every jar is in
its cache: it reads its settings, the POMs of the package and of its dependencies, and
copies the jars. Measured on the 2-core machine, a local session with the Kafka connector
(spark-sql-kafka-0-10 and its 8 dependencies, from ~/.m2): 9.3-10.5 s with the package,
7.5-8.4 s with the same jars as spark.jars (two pairs, quiet). Every Kafka job's start paid
the difference, and so did every Kafka driver the tests start.

A record names the jars one resolution gave (the entries it added to spark.jars), keyed by
what decides a resolution: the coordinates, their excludes and Spark's version. It is used
only while every jar it names is still there with its size; a user's own Ivy settings
(spark.jars.repositories, spark.jars.ivy, spark.jars.ivySettings) or packages of their own
always go through Ivy.
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Dict, List, Optional, Sequence

from pyflink_on_spark.private_files import open_private, private_dir, user_cache_path

# the user's own resolution settings: with any of them Ivy decides, as they asked
IVY_SETTINGS = ("spark.jars.packages", "spark.jars.repositories", "spark.jars.ivy",
                "spark.jars.ivySettings")


def records_dir() -> str:
    return user_cache_path("resolved-packages")


def _record_path(packages: Sequence[str], excludes: Sequence[str], spark_version: str,
                 directory: Optional[str]) -> str:
    digest = hashlib.sha256(json.dumps(
        [sorted(packages), sorted(excludes), spark_version]).encode()).hexdigest()[:20]
    return os.path.join(directory or records_dir(), digest + ".json")


def known_jars(packages: Sequence[str], excludes: Sequence[str], users_conf: Dict[str, str],
               spark_version: str, directory: Optional[str] = None) -> Optional[List[str]]:
    """The jars an earlier resolution of these packages gave, when each is still there as
    it was; None when Ivy must resolve them (no record, a jar gone or changed, or the
    user's own Ivy settings)."""
    if not packages or any(users_conf.get(key) for key in IVY_SETTINGS):
        return None
    try:
        # the jars go on the driver's class path: only this user may have named them
        directory = private_dir(directory or records_dir(), "the resolved packages directory")
        with open(_record_path(packages, excludes, spark_version, directory)) as f:
            record = json.load(f)
        jars = [str(path) for path, _ in record]
        if not jars or any(os.path.getsize(path) != size for path, size in record):
            return None
    except (OSError, ValueError, TypeError):
        return None   # none yet, or unreadable: Ivy resolves, as without the record
    return jars


def remember(packages: Sequence[str], excludes: Sequence[str], jars_before: str,
             jars_after: str, spark_version: str, directory: Optional[str] = None) -> None:
    """Records the jars a start's resolution added to spark.jars (`jars_after` less
    `jars_before`, the conf's comma-separated values before and after the start)."""
    before = {_local_path(j) for j in jars_before.split(",") if j.strip()}
    added = [p for p in (_local_path(j) for j in jars_after.split(",") if j.strip())
             if p not in before]
    if not packages or not added:
        return
    try:
        record = [(path, os.path.getsize(path)) for path in added]
        directory = private_dir(directory or records_dir(), "the resolved packages directory")
        path = _record_path(packages, excludes, spark_version, directory)
        temporary = "%s.%d.tmp" % (path, os.getpid())
        with open_private(temporary, "w") as f:
            json.dump(record, f)
        os.replace(temporary, path)   # whole or not at all for a start reading it
    except OSError:
        return   # only a shortcut: the next start resolves with Ivy again


def _local_path(jar: str) -> str:
    """A spark.jars entry as a local path (Spark writes resolved jars as file:// URLs)."""
    jar = jar.strip()
    return jar[len("file://"):] if jar.startswith("file://") else jar

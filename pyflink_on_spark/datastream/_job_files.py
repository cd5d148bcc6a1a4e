"""The files a job names for upload (add_jars, register_cached_file, pipeline.jars): checked
as PyFlink checks them (observed on PyFlink 1.20.5).

* add_jars / add_classpaths parse each path as a java.net.URL at once: a path without a scheme
  fails there ("no protocol: /x.jar").
* At execute(), PyFlink uploads the jars and cached files: a local one that does not exist
  fails the job ("Could not upload job files", java.io.FileNotFoundException). Classpaths are
  not uploaded: a missing one is no error.

Spark needs none of these jars (its connectors come from Spark's own packages), so a jar that
exists is accepted and otherwise unused. One difference on purpose: a missing jar of Flink's own
(`flink-*.jar`: the connectors and formats a PyFlink job adds, e.g.
flink-sql-connector-kafka-3.3.0-1.20.jar) does not fail the job here. A job moved from a Flink
machine names them at paths that exist only there, and the shim runs those connectors itself;
one line on stderr says the jar was skipped.
"""
import os
import re
import sys
from typing import Iterable, Optional
from urllib.parse import unquote, urlparse

# Apache Flink's artifacts: flink-<name>-<version>.jar (connectors, formats, the SQL bundles)
FLINK_JAR = re.compile(r"^flink-[a-z0-9-]+-\d[\w.-]*\.jar$")


def check_urls(paths: Iterable[str]) -> None:
    """java.net.URL(path) for each path, as add_jars / add_classpaths do in PyFlink."""
    for path in paths:
        scheme = urlparse(path).scheme
        if not scheme or len(scheme) == 1:  # "C:/x.jar" is no URL either
            raise ValueError("no protocol: %s (add_jars and add_classpaths take URLs: write "
                             "file://%s)" % (path, os.path.abspath(path)))


def _local_path(path: str) -> Optional[str]:
    """The local file a path or file:// URL names, None for other file systems."""
    parsed = urlparse(path)
    if parsed.scheme == "file":
        return unquote(parsed.path)
    if not parsed.scheme or len(parsed.scheme) == 1:
        return path
    return None


def check_uploads(jars: Iterable[str], cached_files: Iterable[str]) -> None:
    """Fail as PyFlink's job submission fails when a local jar or cached file is missing,
    but for a missing jar of Flink's own (module doc)."""
    jars = list(jars)
    for path in jars + list(cached_files):
        local = _local_path(path)
        if local is not None and not os.path.exists(local):
            if path in jars and FLINK_JAR.match(os.path.basename(local)):
                sys.stderr.write("pyflink-on-spark: add_jars: %s is not on this machine; it is "
                                 "one of Flink's own jars, which the shim does not need (it "
                                 "runs Flink's connectors itself): skipped\n" % local)
                continue
            raise FileNotFoundError(
                "Failed to execute job: Could not upload job files: %s (No such file or "
                "directory)" % local)

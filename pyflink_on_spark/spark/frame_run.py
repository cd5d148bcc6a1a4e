"""One Spark job that computes a stage's frame for its effects (its tasks' records went to
the driver channel or the next stage), keeping nothing.

Spark's "noop" sink (`frame.write.format("noop").save()`) does that, but plans the write
anew on every call: analysis, optimisation and physical planning of the whole frame, about
30 ms of a warm two-stage job's ~160 ms, and again for every run of a plan the plan cache
keeps (spark/plan_cache.py). A frame's physical plan does not change between runs; only its
shuffles must be new, or Spark would take the map outputs of the previous run as this run's
and skip its stages. So the executed plan is made once per frame and a copy of it runs each
time: a copied exchange is a new shuffle (its ShuffleDependency is made when it first
executes).

What the noop write's SQL execution also does is done here: the session's SQL settings
travel to the tasks as local properties (Spark's SQLExecution.withSQLConfPropagated), and a
failed job raises the exception pyspark's DataFrame calls raise (capture_sql_exception).
A plan that reuses an exchange or a subquery (a leaf pointing to a node outside the tree,
which a copy would not copy) runs through the noop write, as does a frame of Spark Connect,
which has no plan here.
"""
from __future__ import annotations

import contextlib
from typing import Iterator, Optional

_PLAN_ATTRIBUTE = "_pyflink_on_spark_executed_plan"
# names of the nodes that point outside the tree (Spark's ReuseExchangeAndSubquery rule)
_REUSE_MARKS = ("ReusedExchange", "ReusedSubquery")


def run_frame(frame) -> None:
    """Computes `frame` once for its effects."""
    plan = _executed_plan(frame)
    if plan is None:
        frame.write.format("noop").mode("overwrite").save()
        return
    from pyspark.errors.exceptions.captured import capture_sql_exception
    session = frame.sparkSession
    with _sql_conf_propagated(session):
        capture_sql_exception(lambda: plan.clone().execute().count())()


def _executed_plan(frame):
    """The frame's executed physical plan (made once per frame), or None when a copy of it
    could not run alone."""
    plan = getattr(frame, _PLAN_ATTRIBUTE, None)
    if plan is None:
        plan = _plan_of(frame) or False
        setattr(frame, _PLAN_ATTRIBUTE, plan)
    return plan or None


def _plan_of(frame) -> Optional[object]:
    java_frame = getattr(frame, "_jdf", None)
    if java_frame is None:   # Spark Connect
        return None
    plan = java_frame.queryExecution().executedPlan()
    text = plan.toString()
    if any(mark in text for mark in _REUSE_MARKS):
        return None
    return plan


@contextlib.contextmanager
def _sql_conf_propagated(session) -> Iterator[None]:
    """The session's SQL settings as local properties of this thread's jobs while the block
    runs (tasks read their SQL settings there), the thread's own properties after. (The
    properties are swapped, not changed in place: py4j makes a Java map a Python mapping,
    whose clear() took 50-60 ms of calls.)"""
    jvm = session.sparkContext._jvm
    context = session.sparkContext._jsc.sc()
    own = context.getLocalProperties()
    propagated = own.clone()
    settings = session._jsparkSession.sessionState().conf().getAllConfs()
    propagated.putAll(jvm.scala.jdk.javaapi.CollectionConverters.asJava(settings))
    context.setLocalProperties(propagated)
    try:
        yield
    finally:
        context.setLocalProperties(own)

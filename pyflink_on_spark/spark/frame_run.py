"""One Spark job that computes a stage's frame for its effects (its tasks' records went to
the driver channel or the next stage), keeping nothing.

Spark's "noop" sink (`frame.write.format("noop").save()`) does that, but plans the write
anew on every call: analysis, optimisation and physical planning of the whole frame, again
for every run of a plan the plan cache keeps (spark/plan_cache.py). A frame's physical plan
does not change between runs; only its shuffles must be new, or Spark would take the map
outputs of the previous run as this run's and skip its stages. So the executed plan is made
once per frame and a copy of it runs each time: a copied exchange is a new shuffle (its
ShuffleDependency is made when it first executes). A warm 1000-record keyed job: 0.20 ->
0.18 s (medians of 15 runs in turn, benchmarks/RESULTS.md).

What the noop write's SQL execution also does is done here: the session's SQL settings
travel to the tasks as local properties, as Spark's SQLExecution.withSQLConfPropagated sends
those whose names start with "spark" (here all of them: picking them out would cost a py4j
round trip per setting), and a failed job raises the exception pyspark's DataFrame calls
raise (capture_sql_exception).
A plan that reuses an exchange (a leaf pointing to a node elsewhere in the tree, which a
copy would not copy) or holds a subquery runs through the noop write, as does a frame of
Spark Connect, which has no plan here.
"""
from __future__ import annotations

import contextlib
import threading
from typing import Iterator, Optional

_PLAN_ATTRIBUTE = "_pyflink_on_spark_executed_plan"
_HANDLES_ATTRIBUTE = "_pyflink_on_spark_jvm_handles"
WHOLE_STAGE_CODEGEN = "spark.sql.codegen.wholeStage"
_codegen_lock = threading.Lock()
# the node that points to an exchange elsewhere in the plan (Spark's ReuseExchangeAndSubquery
# rule; a reused subquery sits in a subquery, and a plan with any subquery is not copied)
_REUSED_EXCHANGE = "ReusedExchange"


def run_frame(frame, whole_stage_codegen: bool = True) -> None:
    """Computes `frame` once for its effects. `whole_stage_codegen`: False for a frame that
    reads no Spark source (no file or Kafka scan), only the rows of the job's own stages,
    which are few (a stage's rows carry chunks of records): Spark writes a stage's code
    again at every execution (its compiled class is cached; writing it took about 11 ms of
    a warm two-stage job, and compiling it more on a cold JVM), and for a few thousand rows
    of a Range, a projection and a sort, that code pays nothing back."""
    plan = _executed_plan(frame, whole_stage_codegen)
    if plan is None:
        frame.write.format("noop").mode("overwrite").save()
        return
    from pyspark.errors.exceptions.captured import capture_sql_exception
    session = frame.sparkSession
    with _sql_conf_propagated(session):
        capture_sql_exception(lambda: plan.clone().execute().count())()


def count_rows(frame) -> int:
    """The number of `frame`'s rows, computed by one Spark job over its plan's rows (a
    persisted frame's plan reads, and so fills, its cache). DataFrame.count() plans an
    aggregation on top, whose exchange to one partition is a Spark stage of its own: ~20 ms
    of every micro-batch."""
    java_frame = getattr(frame, "_jdf", None)
    if java_frame is None:   # Spark Connect
        return frame.count()
    from pyspark.errors.exceptions.captured import capture_sql_exception
    with _sql_conf_propagated(frame.sparkSession):
        return capture_sql_exception(
            lambda: java_frame.queryExecution().toRdd().count())()


def _executed_plan(frame, whole_stage_codegen: bool = True):
    """The frame's executed physical plan (made once per frame), or None when a copy of it
    could not run alone."""
    plan = getattr(frame, _PLAN_ATTRIBUTE, None)
    if plan is None:
        plan = _plan_of(frame, whole_stage_codegen) or False
        setattr(frame, _PLAN_ATTRIBUTE, plan)
    return plan or None


def _plan_of(frame, whole_stage_codegen: bool) -> Optional[object]:
    java_frame = getattr(frame, "_jdf", None)
    if java_frame is None:   # Spark Connect
        return None
    with _whole_stage_codegen(frame.sparkSession, whole_stage_codegen):
        plan = java_frame.queryExecution().executedPlan()
    # (the leaves' names, not the plan's text: on a cold JVM the text took 16 ms, these 3)
    leaves = plan.collectLeaves()
    if any(leaves.apply(i).nodeName() == _REUSED_EXCHANGE for i in range(leaves.size())) \
            or not plan.subqueriesAll().isEmpty():
        return None
    return plan


@contextlib.contextmanager
def _whole_stage_codegen(session, enabled: bool) -> Iterator[None]:
    """Spark plans (the one time a frame's plan is made) with whole-stage code generation
    as `enabled` says. The setting is the session's, so it is changed for the moment of
    planning only, one planning at a time here; a query of the user's own planned in that
    moment would run without the generated code (the same results, at some cost)."""
    if enabled:
        yield
        return
    with _codegen_lock:
        conf = session.conf
        before = conf.get(WHOLE_STAGE_CODEGEN)
        conf.set(WHOLE_STAGE_CODEGEN, "false")
        try:
            yield
        finally:
            conf.set(WHOLE_STAGE_CODEGEN, before)


@contextlib.contextmanager
def _sql_conf_propagated(session) -> Iterator[None]:
    """The session's SQL settings as local properties of this thread's jobs while the block
    runs (tasks read their SQL settings there), the thread's own properties after. (The
    properties are swapped, not changed in place: py4j makes a Java map a Python mapping,
    whose clear() took 50-60 ms of calls.)"""
    context, sql_conf, as_java = _handles(session)
    own = context.getLocalProperties()
    propagated = own.clone()
    propagated.putAll(as_java(sql_conf.getAllConfs()))
    context.setLocalProperties(propagated)
    try:
        yield
    finally:
        context.setLocalProperties(own)


def _handles(session) -> tuple:
    """The session's SparkContext and SQLConf in the JVM, and Scala's map converter
    (asJava): each one py4j round trip or more to find, so found once per session."""
    handles = getattr(session, _HANDLES_ATTRIBUTE, None)
    if handles is None:
        handles = (session.sparkContext._jsc.sc(),
                   session._jsparkSession.sessionState().conf(),
                   session.sparkContext._jvm.scala.jdk.javaapi.CollectionConverters.asJava)
        setattr(session, _HANDLES_ATTRIBUTE, handles)
    return handles

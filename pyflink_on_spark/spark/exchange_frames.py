"""The exchange between two stages as DataFrame steps, on the driver (spark/executor.py for
bounded jobs, spark/streaming/executor.py for every micro-batch). Kept out of
batch_schema.py, which the tasks import: this module imports the direct runner's package
(80-95 ms of a worker's start)."""
from __future__ import annotations

from pyflink_on_spark.direct.exchange import EXCHANGE_ORDER, ROUTE_BY


# (session, {name: Column}): the columns every plan names. A Column by name is an unresolved
# reference, good in any plan of its session; made once, it spares each exchange the Py4J
# round trips of F.col per name (an exchange by names took 25-35 ms of the driver's time,
# by the cached columns 10-16 ms: every stage of a job, every stage of a micro-batch)
_named_columns: list = [None, {}]


def named_column(session, name: str):
    """The Column `name` of `session`, made once."""
    if _named_columns[0] is not session:
        _named_columns[:] = [session, {}]
    columns = _named_columns[1]
    column = columns.get(name)
    if column is None:
        from pyspark.sql import functions as F
        column = columns[name] = F.col(name)
    return column


def exchanged(frame, parallelism: int, session):
    """`frame`'s rows as the exchange contract has them (direct/exchange.py): each in the
    partition (subtask) its ROUTE_BY column names, each partition in EXCHANGE_ORDER."""
    return frame.repartitionById(parallelism, named_column(session, ROUTE_BY)) \
        .sortWithinPartitions(*(named_column(session, name) for name in EXCHANGE_ORDER))

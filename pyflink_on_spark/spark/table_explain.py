"""Spark's plan of a table's query (table/explain.py), made over empty frames of its inputs'
columns: Spark's analyzer and optimizer plan it and no job runs (as table_frames.table_columns
types a query)."""
from __future__ import annotations

import contextlib
import io

__all__ = ['spark_plan']


def spark_plan(description, session, mode: str = "formatted") -> str:
    """Spark's explain text of a QueryTable's query (`mode`: DataFrame.explain's)."""
    from pyflink_on_spark.spark.table_frames import input_columns, register_view, spark_schema
    for name, view in description.inputs:
        register_view(session, name, session.createDataFrame(
            [], spark_schema(input_columns(view, session))))
    if description.functions:
        from pyflink_on_spark.spark.table_udfs import register_functions
        register_functions(session, description.functions)
    frame = session.sql(description.query)
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        frame.explain(mode=mode)
    return text.getvalue().rstrip()

"""Python user-defined functions of a query on Spark: each one (specs/table_functions.py) is
registered in the session as an Arrow UDF under its Spark name, so the translated Spark SQL
calls it. Spark runs it in its tasks over Arrow batches: a scalar function's iterator UDF
opens the user's function once per task, calls it row by row as PyFlink does and closes it
when the task's batches end (runtime/table_udfs.py); a table function is a scalar UDF giving
each row's rows as an array of structs that the query's LATERAL VIEW inline() spreads; an
aggregate function a grouped-aggregate Arrow UDF. The user's function travels cloudpickled
(the shim's pickler keeps its file names for tracebacks) and is unpickled in the task after
`pyflink` is aliased there; a cluster's workers import the shim from the zip it ships."""
from __future__ import annotations

from typing import Iterator, Tuple

import pyarrow as pa

from pyflink_on_spark.specs.table_functions import AGGREGATE, SCALAR, TABLE, UserFunctionSpec

__all__ = ['register_functions']


def register_functions(session, functions: Tuple[UserFunctionSpec, ...]) -> None:
    """Registers the query's functions in the session (again: a name is one function)."""
    from pyflink_on_spark.aliasing import pyflink_aliased
    from pyflink_on_spark.spark.run_options import run_options
    worker = (tuple(run_options().script_dirs), pyflink_aliased())
    for spec in functions:
        session.udf.register(spec.spark_name, _spark_udf(spec, worker))


def _spark_udf(spec: UserFunctionSpec, worker):
    import warnings
    with warnings.catch_warnings():     # "It is preferred to specify type hints ..."
        warnings.simplefilter("ignore", UserWarning)
        return _arrow_udf(spec, worker)


def _arrow_udf(spec: UserFunctionSpec, worker):
    from pyspark.sql.functions import arrow_udf
    from pyspark.sql.pandas.functions import ArrowUDFType
    from pyspark.sql.pandas.types import from_arrow_type
    if spec.kind == SCALAR:
        result = _arrow_type(spec.result_types[0])
        f = arrow_udf(_scalar_function(spec, result, worker), from_arrow_type(result),
                      ArrowUDFType.SCALAR_ITER)
    elif spec.kind == TABLE:
        result = _rows_type(spec.result_types)
        f = arrow_udf(_table_function(spec, result, worker), from_arrow_type(result),
                      ArrowUDFType.SCALAR_ITER)
    elif spec.kind == AGGREGATE:
        result = _arrow_type(spec.result_types[0])
        f = arrow_udf(_aggregate_function(spec, result, worker), from_arrow_type(result),
                      ArrowUDFType.GROUPED_AGG)
    else:
        raise ValueError("unknown kind of function %r" % spec.kind)
    return f if spec.deterministic else f.asNondeterministic()


def _arrow_type(sql_type: str) -> pa.DataType:
    from pyflink_on_spark.spark.table_frames import arrow_type
    return arrow_type(sql_type)


def _rows_type(sql_types) -> pa.DataType:
    """A table function's rows of one input row: an array of structs f0, f1, ..."""
    return pa.list_(pa.struct([pa.field("f%d" % i, _arrow_type(t))
                               for i, t in enumerate(sql_types)]))


def _user_function(spec: UserFunctionSpec, worker):
    """The user's function, unpickled in this task (after `pyflink` is aliased to the shim
    and the job's script directories are importable: `worker`)."""
    import cloudpickle
    from pyflink_on_spark.spark.stage_task import prepare_worker
    script_dirs, alias_pyflink = worker
    prepare_worker(script_dirs, alias_pyflink)
    return cloudpickle.loads(spec.payload)


def _arguments(batch) -> Tuple[list, int]:
    arrays = (batch,) if isinstance(batch, pa.Array) else tuple(batch)
    return [a.to_pylist() for a in arrays], len(arrays[0]) if arrays else 0


def _scalar_function(spec: UserFunctionSpec, result: pa.DataType, worker):
    pandas = spec.func_type == "pandas"

    def run(batches: Iterator) -> Iterator[pa.Array]:
        from pyflink_on_spark.runtime.table_udfs import PandasScalarRunner, ScalarRunner
        runner = (PandasScalarRunner if pandas else ScalarRunner)(
            _user_function(spec, worker), spec.name, spec.result_types[0], spec.job_parameters)
        for batch in batches:
            if pandas:
                arrays = (batch,) if isinstance(batch, pa.Array) else tuple(batch)
                values = runner.call_series([a.to_pandas() for a in arrays], len(arrays[0]))
            else:
                values = runner.call(*_arguments(batch))
            yield pa.array(values, type=result)
        runner.close()
    return run


def _table_function(spec: UserFunctionSpec, result: pa.DataType, worker):
    names = ["f%d" % i for i in range(len(spec.result_types))]

    pandas = spec.func_type == "pandas"     # Table.map of a pandas udf

    def run(batches: Iterator) -> Iterator[pa.Array]:
        from pyflink_on_spark.runtime.table_udfs import PandasMapRunner, TableRunner
        runner = (PandasMapRunner if pandas else TableRunner)(
            _user_function(spec, worker), spec.name, spec.result_types, spec.job_parameters,
            spec.row_fields)
        for batch in batches:
            if pandas:
                arrays = (batch,) if isinstance(batch, pa.Array) else tuple(batch)
                out = runner.call_frames([a.to_pandas() for a in arrays], len(arrays[0]))
            else:
                out = runner.call(*_arguments(batch))
            yield pa.array([[dict(zip(names, r)) for r in rows_of] for rows_of in out],
                           type=result)
        runner.close()
    return run


def _aggregate_function(spec: UserFunctionSpec, result: pa.DataType, worker):
    opened = []     # the runner of this task (a grouped aggregate has no end-of-task hook)
    pandas = spec.func_type == "pandas"

    def run(*arrays):
        from pyflink_on_spark.runtime.table_udfs import AggregateRunner
        if not opened:
            opened.append(AggregateRunner(_user_function(spec, worker), spec.name,
                                          spec.result_types[0], spec.job_parameters))
        if pandas:
            series = [a.to_pandas() for a in arrays]
            if spec.row_fields is not None:
                # Table.aggregate(f) of the function itself: the group's rows as one
                # DataFrame of the table's columns (seen on PyFlink 1.20.5), as Table.map
                # gives a pandas udf its batch (runtime/table_udfs.py PandasMapRunner)
                import pandas as pd
                series = [pd.DataFrame(dict(zip(spec.row_fields, series)),
                                       index=range(len(arrays[0]) if arrays else 0))]
            value = opened[0].aggregate_series(series)
        else:
            value = opened[0].aggregate([a.to_pylist() for a in arrays])
        return pa.scalar(value, type=result)
    return run

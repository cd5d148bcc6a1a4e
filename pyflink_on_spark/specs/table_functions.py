"""A Python user-defined function a query calls (declarative: table/udf.py declares it, the
Spark layer registers it in the session and runs it in the tasks, spark/table_udfs.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Tuple

SCALAR = "scalar"
TABLE = "table"          # rows by yield: a LATERAL TABLE(...) call
AGGREGATE = "aggregate"  # create_accumulator / accumulate / get_value per group


@dataclass(frozen=True)
class UserFunctionSpec:
    """`spark_name`: the function's name in the translated Spark SQL; `name`: the name the
    program gave it (errors show it); `payload`: the UserDefinedFunction object (a plain
    callable wrapped), cloudpickled on the driver; `result_types`: Flink SQL type strings
    without nullability (one, or a table function's columns); `job_parameters`: what
    FunctionContext.get_job_parameter reads; `deterministic`: else Spark must not re-run or
    reorder it; `func_type` udf's ('general': row by row, 'pandas': batch by batch)."""
    spark_name: str
    name: str
    kind: str
    payload: bytes
    result_types: Tuple[str, ...]
    job_parameters: Tuple[Tuple[str, str], ...] = ()
    deterministic: bool = True
    # 'pandas': the function takes each batch's columns as pandas Series, gives a Series
    func_type: str = "general"
    # Table.flat_map: the arguments are one Row of these fields (None: as they are)
    row_fields: Optional[Tuple[str, ...]] = None
    input_types: Optional[Tuple[str, ...]] = None

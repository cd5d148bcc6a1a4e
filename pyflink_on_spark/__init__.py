"""Run unmodified PyFlink DataStream programs on Apache Spark.

`pyflink_on_spark.datastream` and `pyflink_on_spark.common` mirror `pyflink.datastream` and
`pyflink.common` (PyFlink 1.20). See docs/ARCHITECTURE.md for the layers.
"""

__version__ = "0.1.0"

from pyflink_on_spark import code_pickling as _code_pickling

_code_pickling.install()   # user tracebacks name the user's file (see the module)

"""The documented spelling for spark-submit jobs (README): the alias lives in the neutral
module pyflink_on_spark.aliasing, which the executor's tasks use too."""
from pyflink_on_spark.aliasing import install_pyflink_alias, is_installed

__all__ = ["install_pyflink_alias", "is_installed"]

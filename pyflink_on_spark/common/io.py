"""pyflink.common.io mirror: the InputFormat wrapper."""
from typing import Any

from pyflink_on_spark.common.utils import JavaObjectWrapper

__all__ = ['InputFormat']


class InputFormat(JavaObjectWrapper):
    """Base of data sources that produce records (PyFlink wraps a Java InputFormat).

    In pyflink_on_spark the wrapped object is a plain-Python source description chosen by the
    connector that creates it.
    """

    def __init__(self, j_input_format: Any):
        super().__init__(j_input_format)

"""pyflink.datastream.utils mirror. The JVM bridges of PyFlink (Hadoop configuration and
Java Properties objects, Java object -> Python conversion) become plain-Python equivalents."""
import pickle
from abc import abstractmethod
from typing import Dict

from pyflink_on_spark.common.configuration import Configuration
from pyflink_on_spark.common.typeinfo import PickledBytesTypeInfo, TypeInformation

__all__ = ['ResultTypeQueryable', 'create_hadoop_configuration', 'create_java_properties',
           'convert_to_python_obj', 'pickled_bytes_to_python_obj']


class ResultTypeQueryable(object):
    """Something that declares the type of what it produces."""

    @abstractmethod
    def get_produced_type(self) -> TypeInformation:
        pass


def create_hadoop_configuration(config: Configuration) -> Dict[str, str]:
    """The settings a Hadoop Configuration would hold, as a dict (no JVM here)."""
    return dict(config.to_dict())


def create_java_properties(config: Configuration) -> Dict[str, str]:
    """The settings a java.util.Properties would hold, as a dict (no JVM here)."""
    return dict(config.to_dict())


def convert_to_python_obj(data, type_info):
    """A record as a Python function receives it: pickled bytes are unpickled, other values
    take the shape the declared type gives them."""
    if isinstance(type_info, PickledBytesTypeInfo) and isinstance(data, (bytes, bytearray)):
        return pickle.loads(data)
    return type_info._from_python(data) if data is not None else None


def pickled_bytes_to_python_obj(data, type_info):
    if isinstance(data, (bytes, bytearray)):
        data = pickle.loads(data)
    return convert_to_python_obj(data, type_info)

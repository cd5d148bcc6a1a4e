__all__ = ["OutputTag"]


class OutputTag(object):
    """Names a side output. Two tags with the same id are the same side output."""

    def __init__(self, tag_id: str, type_info=None):
        from pyflink_on_spark.common.typeinfo import RowTypeInfo, TypeInformation, Types
        if not isinstance(tag_id, str) or not tag_id:
            raise ValueError("OutputTag tag_id must be a non-empty string, got %r" % (tag_id,))
        self.tag_id = tag_id
        # As PyFlink: no type means pickled values, a list of types means a ROW.
        if type_info is None:
            type_info = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(type_info, list):
            type_info = RowTypeInfo(type_info)
        elif not isinstance(type_info, TypeInformation):
            raise TypeError("OutputTag type_info must be None, list or TypeInformation")
        self.type_info = type_info

    def __eq__(self, other):
        return isinstance(other, OutputTag) and other.tag_id == self.tag_id

    def __hash__(self):
        return hash(("OutputTag", self.tag_id))

    def __repr__(self):
        return "OutputTag(%r)" % self.tag_id

    def get_java_output_tag(self):
        raise NotImplementedError("OutputTag.get_java_output_tag: there is no Flink JVM here")

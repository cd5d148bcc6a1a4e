"""The data types of pyflink.table.types that DataStream formats take (CsvSchema columns,
Parquet/ORC row types): DataTypes and the type classes it builds. Declarations only: the
Table API itself is not part of pyflink_on_spark."""
from copy import copy
from typing import List

__all__ = ['DataTypes', 'DataType', 'AtomicType', 'NumericType', 'IntegralType',
           'FractionalType', 'NullType', 'CharType', 'VarCharType', 'BinaryType',
           'VarBinaryType', 'BooleanType', 'TinyIntType', 'SmallIntType', 'IntType',
           'BigIntType', 'FloatType', 'DoubleType', 'DecimalType', 'DateType', 'TimeType',
           'TimestampType', 'LocalZonedTimestampType', 'ArrayType', 'MapType', 'MultisetType',
           'RowField', 'RowType']


class DataType(object):
    """The logical type of a value (nullable unless not_null())."""

    def __init__(self, nullable=True):
        self._nullable = nullable
        self._conversion_cls = ''

    def __repr__(self):
        return '%s(%s)' % (self.__class__.__name__, str(self._nullable).lower())

    def __str__(self):
        return self.__class__.type_name()

    def __hash__(self):
        return hash(str(self))

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not self.__eq__(other)

    def not_null(self):
        cp = copy(self)
        cp._nullable = False
        return cp

    def nullable(self):
        cp = copy(self)
        cp._nullable = True
        return cp

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__[:-4].upper()

    def bridged_to(self, conversion_cls) -> 'DataType':
        self._conversion_cls = conversion_cls
        return self

    def need_conversion(self) -> bool:
        return False

    def to_sql_type(self, obj):
        return obj

    def from_sql_type(self, obj):
        return obj


class AtomicType(DataType):
    pass


class NullType(AtomicType):
    def __init__(self):
        super().__init__(True)


class NumericType(AtomicType):
    pass


class IntegralType(NumericType):
    pass


class FractionalType(NumericType):
    pass


class _Sized(AtomicType):
    def __init__(self, length=1, nullable=True):
        super().__init__(nullable)
        self.length = length

    def __repr__(self):
        return '%s(%d, %s)' % (type(self).__name__, self.length, str(self._nullable).lower())


class CharType(_Sized):
    pass


class VarCharType(_Sized):
    pass


class BinaryType(_Sized):
    pass


class VarBinaryType(_Sized):
    pass


class BooleanType(AtomicType):
    pass


class TinyIntType(IntegralType):
    pass


class SmallIntType(IntegralType):
    pass


class IntType(IntegralType):
    pass


class BigIntType(IntegralType):
    pass


class FloatType(FractionalType):
    pass


class DoubleType(FractionalType):
    pass


class DecimalType(FractionalType):
    def __init__(self, precision=10, scale=0, nullable=True):
        super().__init__(nullable)
        self.precision = precision
        self.scale = scale

    def __repr__(self):
        return 'DecimalType(%d, %d, %s)' % (self.precision, self.scale,
                                            str(self._nullable).lower())


class DateType(AtomicType):
    pass


class _Precise(AtomicType):
    def __init__(self, precision=6, nullable=True):
        super().__init__(nullable)
        self.precision = precision

    def __repr__(self):
        return '%s(%d, %s)' % (type(self).__name__, self.precision, str(self._nullable).lower())


class TimeType(_Precise):
    def __init__(self, precision=0, nullable=True):
        super().__init__(precision, nullable)


class TimestampType(_Precise):
    pass


class LocalZonedTimestampType(_Precise):
    pass


class ArrayType(DataType):
    def __init__(self, element_type, nullable=True):
        assert isinstance(element_type, DataType), \
            "element_type %s should be an instance of %s" % (element_type, DataType)
        super().__init__(nullable)
        self.element_type = element_type

    def __repr__(self):
        return "ArrayType(%s, %s)" % (repr(self.element_type), str(self._nullable).lower())


class MultisetType(ArrayType):
    pass


class MapType(DataType):
    def __init__(self, key_type, value_type, nullable=True):
        super().__init__(nullable)
        self.key_type = key_type
        self.value_type = value_type

    def __repr__(self):
        return "MapType(%s, %s, %s)" % (repr(self.key_type), repr(self.value_type),
                                        str(self._nullable).lower())


class RowField(object):
    """A named field of a RowType."""

    def __init__(self, name, data_type, description=None):
        assert isinstance(data_type, DataType), \
            "data_type %s should be an instance of %s" % (data_type, DataType)
        assert isinstance(name, str), "field name %s should be string" % name
        self.name = name
        self.data_type = data_type
        self.description = '...' if description is None else description

    def __repr__(self):
        return "RowField(%s, %s, %s)" % (self.name, repr(self.data_type), self.description)

    def __str__(self):
        return "RowField(%s, %s)" % (self.name, self.data_type)

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash((self.name, str(self.data_type)))


class RowType(DataType):
    """A row of named fields; iterating it yields its RowFields."""

    def __init__(self, fields=None, nullable=True):
        super().__init__(nullable)
        self.fields = list(fields) if fields else []
        assert all(isinstance(f, RowField) for f in self.fields), \
            "fields should be a list of RowField"
        self.names = [f.name for f in self.fields]

    def add(self, field, data_type=None):
        if isinstance(field, RowField):
            self.fields.append(field)
            self.names.append(field.name)
        else:
            if isinstance(field, str) and data_type is None:
                raise ValueError("Must specify DataType if passing name of row_field to create.")
            self.fields.append(RowField(field, data_type))
            self.names.append(field)
        return self

    def __iter__(self):
        return iter(self.fields)

    def __len__(self):
        return len(self.fields)

    def __getitem__(self, key):
        if isinstance(key, str):
            for f in self.fields:
                if f.name == key:
                    return f
            raise KeyError('No RowField named {0}'.format(key))
        if isinstance(key, int):
            try:
                return self.fields[key]
            except IndexError:
                raise IndexError('RowType index out of range')
        if isinstance(key, slice):
            return RowType(self.fields[key])
        raise TypeError('RowType keys should be strings, integers or slices')

    def __repr__(self):
        return "RowType(%s)" % ",".join(repr(f) for f in self)

    def field_names(self) -> List[str]:
        return list(self.names)

    def field_types(self) -> List[DataType]:
        return [f.data_type for f in self.fields]


class DataTypes(object):
    """Factory of data types (the subset DataStream formats use)."""

    @staticmethod
    def NULL() -> NullType:
        return NullType()

    @staticmethod
    def CHAR(length: int, nullable: bool = True) -> CharType:
        return CharType(length, nullable)

    @staticmethod
    def VARCHAR(length: int, nullable: bool = True) -> VarCharType:
        return VarCharType(length, nullable)

    @staticmethod
    def STRING(nullable: bool = True) -> VarCharType:
        return VarCharType(0x7fffffff, nullable)

    @staticmethod
    def BOOLEAN(nullable: bool = True) -> BooleanType:
        return BooleanType(nullable)

    @staticmethod
    def BINARY(length: int, nullable: bool = True) -> BinaryType:
        return BinaryType(length, nullable)

    @staticmethod
    def VARBINARY(length: int, nullable: bool = True) -> VarBinaryType:
        return VarBinaryType(length, nullable)

    @staticmethod
    def BYTES(nullable: bool = True) -> VarBinaryType:
        return VarBinaryType(0x7fffffff, nullable)

    @staticmethod
    def DECIMAL(precision: int, scale: int, nullable: bool = True) -> DecimalType:
        return DecimalType(precision, scale, nullable)

    @staticmethod
    def TINYINT(nullable: bool = True) -> TinyIntType:
        return TinyIntType(nullable)

    @staticmethod
    def SMALLINT(nullable: bool = True) -> SmallIntType:
        return SmallIntType(nullable)

    @staticmethod
    def INT(nullable: bool = True) -> IntType:
        return IntType(nullable)

    @staticmethod
    def BIGINT(nullable: bool = True) -> BigIntType:
        return BigIntType(nullable)

    @staticmethod
    def FLOAT(nullable: bool = True) -> FloatType:
        return FloatType(nullable)

    @staticmethod
    def DOUBLE(nullable: bool = True) -> DoubleType:
        return DoubleType(nullable)

    @staticmethod
    def DATE(nullable: bool = True) -> DateType:
        return DateType(nullable)

    @staticmethod
    def TIME(precision: int = 0, nullable: bool = True) -> TimeType:
        return TimeType(precision, nullable)

    @staticmethod
    def TIMESTAMP(precision: int = 6, nullable: bool = True) -> TimestampType:
        return TimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_WITH_LOCAL_TIME_ZONE(precision: int = 6, nullable: bool = True) \
            -> LocalZonedTimestampType:
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision: int = 6, nullable: bool = True) -> LocalZonedTimestampType:
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def ARRAY(element_type: DataType, nullable: bool = True) -> ArrayType:
        return ArrayType(element_type, nullable)

    @staticmethod
    def MAP(key_type: DataType, value_type: DataType, nullable: bool = True) -> MapType:
        return MapType(key_type, value_type, nullable)

    @staticmethod
    def LIST_VIEW(element_type: DataType):
        """An accumulator's ListView (table/data_view.py)."""
        from pyflink_on_spark.table.data_view import ListViewType
        return ListViewType(element_type)

    @staticmethod
    def MAP_VIEW(key_type: DataType, value_type: DataType):
        """An accumulator's MapView (table/data_view.py)."""
        from pyflink_on_spark.table.data_view import MapViewType
        return MapViewType(key_type, value_type)

    @staticmethod
    def MULTISET(element_type: DataType, nullable: bool = True) -> MultisetType:
        return MultisetType(element_type, nullable)

    @staticmethod
    def ROW(row_fields: List = None, nullable: bool = True) -> RowType:
        return RowType(row_fields or [], nullable)

    @staticmethod
    def FIELD(name: str, data_type: DataType, description: str = None) -> RowField:
        return RowField(name, data_type, description)

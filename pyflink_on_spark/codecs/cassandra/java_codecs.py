"""Which field types Flink's Cassandra sink can bind to which CQL columns.

Flink binds each field as the Java object the stream's type makes it (Types.LONG(): a
java.lang.Long) with the DataStax Java driver 3, whose codec registry has exactly one Java
class per CQL type: a Long field bound to an `int` column fails the write with
CodecNotFoundException "Codec not found for requested operation: [int <-> java.lang.Long]".
The Python driver would serialize the value for whatever the column is, so the shim checks
the pairs itself and fails as Flink does.

Observed on PyFlink 1.20.5 with flink-connector-cassandra_2.12 3.0.0-1.16 (one job per pair):
accepted INT/int, LONG/bigint, LONG/time, STRING/varchar (text), STRING/ascii, FLOAT/float,
DOUBLE/double, SHORT/smallint, BYTE/tinyint, BIG_DEC/decimal, BOOLEAN/boolean,
SQL_TIMESTAMP/timestamp, SQL_DATE/timestamp, LIST(INT)/list<int>, MAP(STRING, INT)/map;
refused INT/bigint, INT/smallint, INT/text, LONG/int, LONG/timestamp, LONG/varint,
STRING/uuid, STRING/inet, FLOAT/double, DOUBLE/float, DOUBLE/decimal, SHORT/int, BYTE/int,
BOOLEAN/int, SQL_TIMESTAMP/date, SQL_DATE/date, SQL_TIME/time,
PRIMITIVE_ARRAY(BYTE)/blob ("[blob <-> [B]"), BASIC_ARRAY(INT)/list<int> ("[list<int> <->
[Ljava.lang.Integer;]": Java arrays have no codec at all). A scalar class is checked against
scalar columns only: collections, tuples and user types are bound as the Python driver does.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Sequence, Tuple

# Java class -> the CQL types (as the Java driver names them: text is "varchar") it binds to
ACCEPTED: Dict[str, FrozenSet[str]] = {
    "java.lang.String": frozenset({"varchar", "ascii"}),
    "java.lang.Long": frozenset({"bigint", "counter", "time"}),
    "java.lang.Integer": frozenset({"int"}),
    "java.lang.Short": frozenset({"smallint"}),
    "java.lang.Byte": frozenset({"tinyint"}),
    "java.lang.Float": frozenset({"float"}),
    "java.lang.Double": frozenset({"double"}),
    "java.lang.Boolean": frozenset({"boolean"}),
    "java.math.BigDecimal": frozenset({"decimal"}),
    # java.util.Date's codec takes its subclasses (the date and time columns take the
    # driver's LocalDate and a Long)
    "java.sql.Timestamp": frozenset({"timestamp"}),
    "java.sql.Date": frozenset({"timestamp"}),
    "java.sql.Time": frozenset({"timestamp"}),
}

# the scalar CQL types; a column of another type (list, map, set, tuple, a user type) is not
# checked
SCALAR_TYPES = frozenset({
    "ascii", "bigint", "blob", "boolean", "counter", "date", "decimal", "double", "duration",
    "float", "inet", "int", "smallint", "time", "timestamp", "timeuuid", "tinyint", "uuid",
    "varchar", "varint"})


def java_class(descriptor: Optional[str]) -> Optional[str]:
    """A JVM type descriptor as Java's Class.getName() prints it: "Ljava.lang.Long;" ->
    "java.lang.Long"; arrays as they are ("[B", "[Ljava.lang.Integer;")."""
    if descriptor and descriptor.startswith("L") and descriptor.endswith(";"):
        return descriptor[1:-1]
    if descriptor and descriptor.startswith("["):
        return descriptor
    return None


def refused_fields(field_classes: Sequence[Optional[str]],
                   column_types: Sequence[str]) -> Tuple[Tuple[int, str], ...]:
    """(field index, Flink's message) of each field whose class the Java driver cannot bind
    to its column (column types as CQL writes them: "int", "list<int>"): a write with a
    non-null value there fails."""
    refused = []
    for index, (cls, cql) in enumerate(zip(field_classes, column_types)):
        if cls is None:
            continue
        accepted = ACCEPTED.get(cls)
        if cls.startswith("[") or (accepted is not None and cql in SCALAR_TYPES
                                   and cql not in accepted):
            refused.append((index, "Codec not found for requested operation: [%s <-> %s]"
                            % (cql, cls)))
    return tuple(refused)

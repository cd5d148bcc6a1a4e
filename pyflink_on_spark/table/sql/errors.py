"""The one error of the SQL layer: a statement, clause, type, option or function that has no
faithful meaning on Spark here (or that Flink itself rejects, worded as Flink words it)."""


class UnsupportedSqlError(NotImplementedError):
    """A Flink SQL construct pyflink_on_spark does not run; the text names the construct."""


class SqlValidationError(ValueError):
    """A statement Flink itself rejects (bad datagen options, unknown column, ...): the text
    says what Flink's ValidationException says."""

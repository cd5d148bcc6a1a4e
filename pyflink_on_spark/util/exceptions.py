"""pyflink.util.exceptions mirror: the exception classes PyFlink converts Java exceptions to,
so that programs' `except` clauses import. (There is no JVM here to raise them from.)"""


class JavaException(Exception):
    def __init__(self, stack_trace: str):
        self.stack_trace = stack_trace

    def __str__(self):
        return self.stack_trace


class TableException(JavaException):
    """Errors of table handling."""


class CatalogException(JavaException):
    """Errors of a catalog."""


class DatabaseAlreadyExistException(JavaException):
    """A database to create exists already."""


class DatabaseNotEmptyException(JavaException):
    """A database to drop is not empty."""


class DatabaseNotExistException(JavaException):
    """A database does not exist."""


class FunctionAlreadyExistException(JavaException):
    """A function to create exists already."""


class FunctionNotExistException(JavaException):
    """A function does not exist."""


class PartitionAlreadyExistsException(JavaException):
    """A partition to create exists already."""


class PartitionNotExistException(JavaException):
    """A partition does not exist."""


class PartitionSpecInvalidException(JavaException):
    """A partition spec is invalid."""


class TableAlreadyExistException(JavaException):
    """A table to create exists already."""


class TableNotExistException(JavaException):
    """A table does not exist."""


class TableNotPartitionedException(JavaException):
    """A table is not partitioned."""


exception_mapping = {
    "org.apache.flink.table.api.TableException": TableException,
    "org.apache.flink.table.catalog.exceptions.CatalogException": CatalogException,
    "org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException":
        DatabaseAlreadyExistException,
    "org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException":
        DatabaseNotEmptyException,
    "org.apache.flink.table.catalog.exceptions.DatabaseNotExistException":
        DatabaseNotExistException,
    "org.apache.flink.table.catalog.exceptions.FunctionAlreadyExistException":
        FunctionAlreadyExistException,
    "org.apache.flink.table.catalog.exceptions.FunctionNotExistException":
        FunctionNotExistException,
    "org.apache.flink.table.catalog.exceptions.PartitionAlreadyExistsException":
        PartitionAlreadyExistsException,
    "org.apache.flink.table.catalog.exceptions.PartitionNotExistException":
        PartitionNotExistException,
    "org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException":
        PartitionSpecInvalidException,
    "org.apache.flink.table.catalog.exceptions.TableAlreadyExistException":
        TableAlreadyExistException,
    "org.apache.flink.table.catalog.exceptions.TableNotExistException": TableNotExistException,
    "org.apache.flink.table.catalog.exceptions.TableNotPartitionedException":
        TableNotPartitionedException,
}

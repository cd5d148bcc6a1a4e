"""pyflink.common.serializer mirror: user-defined TypeSerializer (used by state descriptors)."""
from abc import ABC, abstractmethod
from io import BytesIO
from typing import Generic, TypeVar

T = TypeVar('T')

__all__ = ['TypeSerializer']


class TypeSerializer(ABC, Generic[T]):
    """How a value of type T is written to and read from a byte stream."""

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "%s()" % self.__class__.__name__

    def __hash__(self):
        return hash(str(self))

    @abstractmethod
    def serialize(self, element: T, stream: BytesIO) -> None:
        """Write element to stream."""
        pass

    @abstractmethod
    def deserialize(self, stream: BytesIO) -> T:
        """Read one element from stream."""
        pass

    def _to_bytes(self, element: T) -> bytes:
        """Serialize one element to bytes (the engine stores state values this way)."""
        stream = BytesIO()
        self.serialize(element, stream)
        return stream.getvalue()

    def _from_bytes(self, data: bytes) -> T:
        return self.deserialize(BytesIO(data))


# the namespace of non-windowed state (Flink's VoidNamespace)
void = b''


class VoidNamespaceSerializer(TypeSerializer[bytes]):
    """Serializer of the void namespace: writes nothing, reads the void namespace."""

    def serialize(self, element: bytes, stream: BytesIO) -> None:
        pass

    def deserialize(self, stream: BytesIO) -> bytes:
        return void

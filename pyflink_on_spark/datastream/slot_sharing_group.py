"""SlotSharingGroup and MemorySize: recorded on the graph; Spark schedules tasks itself."""
from typing import Optional

__all__ = ["MemorySize", "SlotSharingGroup"]


class MemorySize(object):
    def __init__(self, j_memory_size=None, bytes_size: int = None):
        if j_memory_size is not None:
            raise NotImplementedError("MemorySize(j_memory_size): there is no Flink JVM here")
        if bytes_size is None or bytes_size < 0:
            raise ValueError("bytes_size must be a non-negative int, got %r" % (bytes_size,))
        self._bytes = int(bytes_size)

    @staticmethod
    def of_mebi_bytes(mebi_bytes: int) -> "MemorySize":
        return MemorySize(bytes_size=mebi_bytes << 20)

    def get_java_memory_size(self):
        raise NotImplementedError("MemorySize.get_java_memory_size: there is no Flink JVM here")

    def get_bytes(self) -> int:
        return self._bytes

    def get_kibi_bytes(self) -> int:
        return self._bytes >> 10

    def get_mebi_bytes(self) -> int:
        return self._bytes >> 20

    def get_gibi_bytes(self) -> int:
        return self._bytes >> 30

    def get_tebi_bytes(self) -> int:
        return self._bytes >> 40

    def __eq__(self, other):
        return isinstance(other, MemorySize) and other._bytes == self._bytes

    def __hash__(self):
        return hash(self._bytes)

    def __repr__(self):
        return "MemorySize(%d bytes)" % self._bytes


class SlotSharingGroup(object):
    """Resource spec of a slot sharing group. Recorded only: Spark decides task placement."""

    def __init__(self, j_slot_sharing_group=None, *, _name: str = None, _resources=None):
        if j_slot_sharing_group is not None:
            raise NotImplementedError("SlotSharingGroup(j_slot_sharing_group): no Flink JVM")
        self._name = _name
        self._resources = dict(_resources or {})

    def get_name(self) -> str:
        return self._name

    def get_managed_memory(self) -> Optional[MemorySize]:
        return self._resources.get("managed_memory")

    def get_task_heap_memory(self) -> Optional[MemorySize]:
        return self._resources.get("task_heap_memory")

    def get_task_off_heap_memory(self) -> Optional[MemorySize]:
        return self._resources.get("task_off_heap_memory")

    def get_cpu_cores(self) -> Optional[float]:
        return self._resources.get("cpu_cores")

    def get_external_resources(self) -> dict:
        return dict(self._resources.get("external", {}))

    def get_java_slot_sharing_group(self):
        raise NotImplementedError("get_java_slot_sharing_group: there is no Flink JVM here")

    @staticmethod
    def builder(name: str) -> "SlotSharingGroup.Builder":
        return SlotSharingGroup.Builder(name)

    def __eq__(self, other):
        return (isinstance(other, SlotSharingGroup) and other._name == self._name
                and other._resources == self._resources)

    def __hash__(self):
        return hash(self._name)

    class Builder(object):
        def __init__(self, j_builder):
            # PyFlink passes a Java builder; here the "handle" is the group's name.
            self._name = j_builder
            self._resources = {}

        def set_cpu_cores(self, cpu_cores: float) -> "SlotSharingGroup.Builder":
            self._resources["cpu_cores"] = cpu_cores
            return self

        def set_task_heap_memory(self, task_heap_memory: MemorySize):
            self._resources["task_heap_memory"] = task_heap_memory
            return self

        def set_task_heap_memory_mb(self, task_heap_memory_mb: int):
            return self.set_task_heap_memory(MemorySize.of_mebi_bytes(task_heap_memory_mb))

        def set_task_off_heap_memory(self, task_off_heap_memory: MemorySize):
            self._resources["task_off_heap_memory"] = task_off_heap_memory
            return self

        def set_task_off_heap_memory_mb(self, task_off_heap_memory_mb: int):
            return self.set_task_off_heap_memory(
                MemorySize.of_mebi_bytes(task_off_heap_memory_mb))

        def set_managed_memory(self, managed_memory: MemorySize):
            self._resources["managed_memory"] = managed_memory
            return self

        def set_managed_memory_mb(self, managed_memory_mb: int):
            return self.set_managed_memory(MemorySize.of_mebi_bytes(managed_memory_mb))

        def set_external_resource(self, name: str, value: float):
            self._resources.setdefault("external", {})[name] = value
            return self

        def build(self) -> "SlotSharingGroup":
            return SlotSharingGroup(_name=self._name, _resources=self._resources)

"""SlotSharingGroup and MemorySize: recorded on the graph; Spark schedules tasks itself.

Validation, equality and texts follow PyFlink 1.20.5 (observed; Flink's Java classes do the
work there): see tests/test_slot_sharing_group.py."""
from typing import Optional

__all__ = ["MemorySize", "SlotSharingGroup"]


class MemorySize(object):
    def __init__(self, j_memory_size=None, bytes_size: int = None):
        if j_memory_size is not None:
            raise NotImplementedError("MemorySize(j_memory_size): there is no Flink JVM here")
        if bytes_size is None:
            raise ValueError("MemorySize(bytes_size=...) needs a number of bytes")
        if bytes_size < 0:
            raise ValueError("bytes must be >= 0")  # Flink's IllegalArgumentException text
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

    def __lt__(self, other: "MemorySize") -> bool:
        if not isinstance(other, MemorySize):
            raise Exception("Does not support comparison with non-MemorySize %s" % other)
        return self._bytes < other._bytes

    def __le__(self, other: "MemorySize") -> bool:
        # PyFlink 1.20 defines <= as "== and <", which is never true; kept so that programs
        # behave as they do there (observed: MemorySize 1 <= MemorySize 1 is False)
        return self.__eq__(other) and self.__lt__(other)

    def __str__(self) -> str:
        # org.apache.flink.configuration.MemorySize.toString: the largest unit dividing the
        # size ("1536 bytes", "1 mb", "2 gb"; zero is "0 bytes")
        if self._bytes == 0:
            return "0 bytes"
        value, unit = self._bytes, "bytes"
        for name in ("kb", "mb", "gb", "tb"):
            if value % 1024:
                break
            value, unit = value // 1024, name
        return "%d %s" % (value, unit)

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
        # Flink's SlotSharingGroup.equals compares the resources, not the name (observed:
        # two groups without resources are equal whatever their names)
        return isinstance(other, SlotSharingGroup) and other._resources == self._resources

    def __hash__(self):
        return hash(tuple(sorted((k, str(v)) for k, v in self._resources.items())))

    class Builder(object):
        def __init__(self, j_builder):
            # PyFlink passes a Java builder; here the "handle" is the group's name.
            self._name = j_builder
            self._resources = {}

        def set_cpu_cores(self, cpu_cores: float) -> "SlotSharingGroup.Builder":
            _expect_float("setCpuCores", cpu_cores)
            if cpu_cores <= 0:
                raise ValueError("The cpu cores should be positive.")
            self._resources["cpu_cores"] = cpu_cores
            return self

        def set_task_heap_memory(self, task_heap_memory: MemorySize):
            if task_heap_memory.get_bytes() <= 0:
                raise ValueError("The task heap memory should be positive.")
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
            _expect_float("setExternalResource", value, "class java.lang.String, ")
            self._resources.setdefault("external", {})[name] = value
            return self

        def build(self) -> "SlotSharingGroup":
            resources = dict(self._resources)
            if "cpu_cores" in resources and "task_heap_memory" in resources:
                resources.setdefault("task_off_heap_memory", MemorySize(bytes_size=0))
                resources.setdefault("managed_memory", MemorySize(bytes_size=0))
            elif resources:
                raise ValueError(
                    "The cpu cores and task heap memory are required when specifying the "
                    "resource of a slot sharing group. You need to explicitly configure them "
                    "with positive value.")
            return SlotSharingGroup(_name=self._name, _resources=resources)


def _expect_float(java_method: str, value, other_params: str = "") -> None:
    """PyFlink hands the value to a Java method taking a double: py4j finds no method for a
    Python int (observed: set_cpu_cores(1) fails, set_cpu_cores(1.0) works)."""
    if type(value) is not float:
        java_class = {int: "java.lang.Integer", bool: "java.lang.Boolean",
                      str: "java.lang.String"}.get(type(value), type(value).__name__)
        raise TypeError("Method %s([%sclass %s]) does not exist (PyFlink passes the value to "
                        "a Java double: give a float, e.g. %s(1.0))"
                        % (java_method, other_params, java_class, java_method))

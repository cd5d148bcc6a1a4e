"""SlotSharingGroup / MemorySize behave as on PyFlink 1.20.5 (each assertion observed there)."""
import pytest

from pyflink_on_spark.datastream.slot_sharing_group import MemorySize, SlotSharingGroup


def test_builder_rejects_what_flink_rejects():
    builder = SlotSharingGroup.builder
    with pytest.raises(ValueError, match="The cpu cores should be positive."):
        builder("a").set_cpu_cores(-1.0)
    with pytest.raises(TypeError, match=r"setCpuCores\(\[class java.lang.Integer\]\)"):
        builder("a").set_cpu_cores(1)
    with pytest.raises(ValueError, match="The task heap memory should be positive."):
        builder("a").set_task_heap_memory_mb(0)
    with pytest.raises(TypeError, match="setExternalResource"):
        builder("a").set_external_resource("gpu", 1)
    for partial in [builder("a").set_cpu_cores(1.0), builder("a").set_task_heap_memory_mb(10),
                    builder("a").set_task_off_heap_memory_mb(10),
                    builder("a").set_external_resource("gpu", 1.0)]:
        with pytest.raises(ValueError, match="The cpu cores and task heap memory are required"):
            partial.build()
    # zero off-heap / managed memory is accepted
    builder("a").set_task_off_heap_memory_mb(0).set_managed_memory_mb(0)


def test_built_groups_default_memory_to_zero_and_compare_by_resources():
    group = SlotSharingGroup.builder("a").set_cpu_cores(1.5).set_task_heap_memory_mb(10).build()
    assert (group.get_name(), group.get_cpu_cores()) == ("a", 1.5)
    assert [str(group.get_task_heap_memory()), str(group.get_task_off_heap_memory()),
            str(group.get_managed_memory())] == ["10 mb", "0 bytes", "0 bytes"]
    empty = SlotSharingGroup.builder("e").build()
    assert (empty.get_cpu_cores(), empty.get_task_heap_memory(),
            empty.get_external_resources()) == (None, None, {})
    assert SlotSharingGroup.builder("x").build() == empty
    assert SlotSharingGroup.builder("b").set_cpu_cores(1.5).set_task_heap_memory_mb(10) \
        .build() == group


def test_memory_size_compares_and_prints_as_pyflink():
    one, two = MemorySize(bytes_size=1), MemorySize(bytes_size=2)
    assert (one < two, two < one, one > two, two > one) == (True, False, False, True)
    # PyFlink's <= is "== and <": never true
    assert (one <= two, one <= MemorySize(bytes_size=1), one >= two, two >= one) == \
        (False, False, False, False)
    with pytest.raises(Exception, match="Does not support comparison with non-MemorySize 3"):
        one < 3
    assert [str(m) for m in [one, MemorySize.of_mebi_bytes(1), MemorySize(bytes_size=1536),
                             MemorySize(bytes_size=0), MemorySize.of_mebi_bytes(2048)]] == \
        ["1 bytes", "1 mb", "1536 bytes", "0 bytes", "2 gb"]
    with pytest.raises(ValueError, match="bytes must be >= 0"):
        MemorySize(bytes_size=-1)

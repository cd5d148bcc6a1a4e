"""File sink machinery, pure Python: part files, buckets, rolling, the staged commit.

A sink subtask writes finished part files into a hidden staging directory under the base
path and reports them (committables); the driver publishes them with renames only after the
whole job succeeded, and removes the staging directory in every case (codecs/files/commit.py).
The sink itself is described by specs.sinks.FileSinkSpec.
"""

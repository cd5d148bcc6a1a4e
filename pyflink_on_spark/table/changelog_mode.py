"""pyflink.table.ChangelogMode: the kinds of changes a changelog holds, which
StreamTableEnvironment.from_changelog_stream takes (table/changelog_streams.py)."""

__all__ = ['ChangelogMode']


class ChangelogMode(object):
    """The set of changes contained in a changelog: insert_only(), upsert() (no -U rows: a
    primary key's rows are normalized), all() (every RowKind: the default)."""

    def __init__(self, name: str) -> None:
        self._name = name

    @staticmethod
    def insert_only() -> 'ChangelogMode':
        return ChangelogMode("insert_only")

    @staticmethod
    def upsert() -> 'ChangelogMode':
        return ChangelogMode("upsert")

    @staticmethod
    def all() -> 'ChangelogMode':
        return ChangelogMode("all")

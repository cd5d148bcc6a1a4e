"""EnvironmentSettings: whether a TableEnvironment runs in streaming or batch mode (what
to_changelog_stream emits depends on it, docs/table.md)."""
from __future__ import annotations

from typing import Optional

__all__ = ['EnvironmentSettings']

_CATALOG = "default_catalog"
_DATABASE = "default_database"


class EnvironmentSettings(object):
    """Built by EnvironmentSettings.new_instance()...build(), in_streaming_mode() or
    in_batch_mode()."""

    class Builder(object):

        def __init__(self) -> None:
            self._streaming = True
            self._catalog = _CATALOG
            self._database = _DATABASE
            self._configuration = None

        def with_configuration(self, config) -> 'EnvironmentSettings.Builder':
            self._configuration = config
            mode = config.get_string("execution.runtime-mode", "") if config is not None \
                else ""
            if mode.lower() == "batch":
                self._streaming = False
            return self

        def in_batch_mode(self) -> 'EnvironmentSettings.Builder':
            self._streaming = False
            return self

        def in_streaming_mode(self) -> 'EnvironmentSettings.Builder':
            self._streaming = True
            return self

        def with_built_in_catalog_name(self, built_in_catalog_name: str) \
                -> 'EnvironmentSettings.Builder':
            self._catalog = built_in_catalog_name
            return self

        def with_built_in_database_name(self, built_in_database_name: str) \
                -> 'EnvironmentSettings.Builder':
            self._database = built_in_database_name
            return self

        def build(self) -> 'EnvironmentSettings':
            return EnvironmentSettings(self._streaming, self._catalog, self._database,
                                       self._configuration)

    def __init__(self, streaming: bool = True, catalog: str = _CATALOG,
                 database: str = _DATABASE, configuration=None) -> None:
        self._streaming = streaming
        self._catalog = catalog
        self._database = database
        self._configuration = configuration

    def get_built_in_catalog_name(self) -> str:
        return self._catalog

    def get_built_in_database_name(self) -> str:
        return self._database

    def is_streaming_mode(self) -> bool:
        return self._streaming

    def to_configuration(self):
        return self.get_configuration()

    def get_configuration(self):
        from pyflink_on_spark.common.configuration import Configuration
        config = Configuration()
        if self._configuration is not None:
            config.add_all(self._configuration)
        config.set_string("execution.runtime-mode", "streaming" if self._streaming else "batch")
        return config

    @staticmethod
    def new_instance() -> 'EnvironmentSettings.Builder':
        return EnvironmentSettings.Builder()

    @staticmethod
    def from_configuration(config) -> 'EnvironmentSettings':
        return EnvironmentSettings.Builder().with_configuration(config).build()

    @staticmethod
    def in_streaming_mode() -> 'EnvironmentSettings':
        return EnvironmentSettings.Builder().in_streaming_mode().build()

    @staticmethod
    def in_batch_mode() -> 'EnvironmentSettings':
        return EnvironmentSettings.Builder().in_batch_mode().build()


def streaming_of(settings: Optional[EnvironmentSettings], env) -> bool:
    """The mode of a table environment: its settings', else its stream environment's runtime
    mode (STREAMING unless set to BATCH)."""
    if settings is not None:
        return settings.is_streaming_mode()
    return env is None or env._job_settings().config.runtime_mode != "BATCH"

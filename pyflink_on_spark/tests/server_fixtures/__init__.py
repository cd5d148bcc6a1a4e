"""Session fixtures for connector servers, one module per server (`<server>.py`, holding its
pytest fixtures). The root conftest loads every module of this package as a pytest plugin,
so adding a server is adding a file here: a server starts only when a collected test asks
for its fixture, once per test session."""

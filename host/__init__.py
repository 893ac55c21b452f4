"""tableref host application: rules engines, referee, storage, serial link, web API, CLI."""

__version__ = "0.1.0"

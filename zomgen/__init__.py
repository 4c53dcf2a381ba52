"""zomgen: compile Zarr hierarchy conventions into typed Python and TypeScript packages."""

__version__ = "0.1.0"

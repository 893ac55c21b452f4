"""REST routes, one module per resource; each route is a thin call into store or referee."""

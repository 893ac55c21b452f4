"""Benchmarks: ``python -m bench [NAME ...]`` runs bench/NAME.py, writes bench/results/NAME.json."""

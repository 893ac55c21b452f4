"""tableref's eyes: camera sources, detection, recognition, synthetic data, training."""

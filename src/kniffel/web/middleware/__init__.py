"""What every request passes through: limits, turns, headers, origins, the access log, metrics,
the outage answer and the mapping of every error to a 4xx answer."""

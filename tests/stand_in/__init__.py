"""Stand-in programs (a fake NWChem and a fake MPI launcher) for the job runner tests."""

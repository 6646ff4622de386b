"""The `codemem-bench` command line; one module per subcommand."""

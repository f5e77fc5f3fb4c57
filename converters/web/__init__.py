"""The assistant page: a web front-end over the library, one floor below the command line that starts it."""

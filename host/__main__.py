from host.cli import main

main()

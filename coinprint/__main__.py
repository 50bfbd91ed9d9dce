from coinprint.cli import main

main()

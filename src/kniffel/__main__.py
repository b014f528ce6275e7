from kniffel.cli import main

main()

from services.turns.main import main

main()

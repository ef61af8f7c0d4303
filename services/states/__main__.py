from services.states.main import main

main()

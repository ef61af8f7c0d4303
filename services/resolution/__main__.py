from services.resolution.main import main

main()

await LanesCommand.main()

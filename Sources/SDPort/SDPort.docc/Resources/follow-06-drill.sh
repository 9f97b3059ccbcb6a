swift run sdport drill        # the list: each FAQ answer's rule and the one-line change that breaks it
swift run sdport drill 3
# FAQ-03: The file name is the MD5 of the key plus the URL's path extension.
# It changes, in a scratch copy, Sources/SDPort/Cache/SDImageCache+FileName.swift:
#     return fileExtension.isEmpty ? hash : hash + "." + fileExtension   →   return hash
# then runs the FAQ03_ tests there; test_FAQ03_fileNameIsMD5PlusExtension fails.

import CastAuth
import Testing

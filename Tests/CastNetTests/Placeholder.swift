import CastNet
import Testing

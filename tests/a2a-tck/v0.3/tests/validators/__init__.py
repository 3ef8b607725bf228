"""
A2A v0.3.0 Specification Compliance Validators

This package provides validation functions for ensuring A2A v0.3.0 specification
compliance across different transport protocols and testing scenarios.
"""

from .a2a_v030_compliance import (
    A2AError,
    JSONRPCError,
    TransportComplianceValidator,
    MethodMappingValidator,
    FunctionalEquivalenceValidator,
    ErrorHandlingValidator,
    validate_a2a_v030_compliance,
)

__all__ = [
    "A2AError",
    "JSONRPCError",
    "TransportComplianceValidator",
    "MethodMappingValidator",
    "FunctionalEquivalenceValidator",
    "ErrorHandlingValidator",
    "validate_a2a_v030_compliance",
]

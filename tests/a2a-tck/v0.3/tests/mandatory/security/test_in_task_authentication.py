"""
A2A v0.3.0 Protocol: Mandatory In-Task Authentication Tests

SPECIFICATION REQUIREMENTS (Section 4.5):
- Tasks SHOULD transition to 'auth-required' state when additional credentials needed
- Authentication challenges MUST use proper HTTP status codes (401/403)
- WWW-Authenticate headers SHOULD be included with 401 responses
- In-task authentication flow MUST follow A2A specification patterns

These tests verify that agents properly implement in-task authentication flows
when additional credentials are required during task execution.

Reference: A2A v0.3.0 Specification Section 4.5 (In-Task Authentication)
"""

import logging
import time
from typing import Dict, Any, Optional

import pytest
import requests

from tck import message_utils, config
from tests.markers import mandatory
from tests.utils import transport_helpers

logger = logging.getLogger(__name__)


@pytest.fixture(scope="module")
def agent_with_auth_info(agent_card_data):
    """
    Extract authentication and in-task auth information from Agent Card.

    Returns dictionary with authentication configuration details including
    declared security schemes and support for in-task authentication.
    """
    if agent_card_data is None:
        pytest.skip("Agent Card not available - cannot test in-task authentication")

    from tck import agent_card_utils

    auth_info = {
        "has_authentication": bool(agent_card_utils.get_authentication_schemes(agent_card_data)),
        "authentication_schemes": agent_card_utils.get_authentication_schemes(agent_card_data),
        "supports_auth_required_state": True,  # A2A v0.3.0 requirement
        "base_url": agent_card_data.get("url"),
        "capabilities": agent_card_data.get("capabilities", {}),
    }

    return auth_info


def create_test_task_for_auth(sut_client, message_text: str = "Test task for in-task authentication") -> Optional[str]:
    """
    Create a test task that might trigger in-task authentication requirements.

    Returns the task ID if successful, None otherwise.
    """
    try:
        req_id = message_utils.generate_request_id()
        test_message = {
            "role": "user",
            "parts": [{"kind": "text", "text": message_text}],
            "messageId": f"auth-test-msg-{req_id}",
            "kind": "message",
        }

        message_response = transport_helpers.transport_send_message(sut_client, {"message": test_message})

        if transport_helpers.is_json_rpc_success_response(message_response):
            result = message_response["result"]
            if isinstance(result, dict) and "id" in result:
                return result["id"]

    except Exception as e:
        logger.warning(f"Failed to create test task for auth testing: {e}")

    return None


def poll_task_for_auth_required_state(
    sut_client, task_id: str, max_polls: int = 10, poll_interval: float = 0.5
) -> Optional[Dict[str, Any]]:
    """
    Poll a task to check if it transitions to 'auth-required' state.

    Returns the task response when auth-required state is detected, None otherwise.
    """
    for poll_count in range(max_polls):
        try:
            task_response = transport_helpers.transport_get_task(sut_client, task_id)

            if transport_helpers.is_json_rpc_success_response(task_response):
                task = task_response["result"]
                if isinstance(task, dict):
                    status = task.get("status", {})
                    if isinstance(status, dict):
                        state = status.get("state")
                        if state == "auth-required":
                            logger.info(f"Task {task_id} transitioned to 'auth-required' state after {poll_count + 1} polls")
                            return task_response
                        elif state in ["completed", "failed", "canceled"]:
                            # Task finished without requiring auth
                            logger.info(f"Task {task_id} completed with state '{state}' without requiring auth")
                            return None

            time.sleep(poll_interval)

        except Exception as e:
            logger.warning(f"Error polling task {task_id} for auth state: {e}")
            break

    logger.info(f"Task {task_id} did not transition to 'auth-required' state after {max_polls} polls")
    return None


@mandatory
def test_auth_required_state_support(agent_with_auth_info):
    """
    MANDATORY: A2A v0.3.0 Section 4.5 - Auth-Required State Support

    Tests that the agent supports the 'auth-required' task state as required
    by the A2A v0.3.0 specification for in-task authentication scenarios.

    The 'auth-required' state is mandatory in A2A v0.3.0 TaskState enum
    and MUST be available for agents that may require additional credentials.

    Test Procedure:
    1. Verify TaskState enum includes 'auth-required' state
    2. Confirm agent can transition tasks to this state
    3. Validate state behavior follows specification

    Asserts:
        - Agent supports 'auth-required' task state
        - State transitions follow A2A specification
        - Task state enum compliance with v0.3.0
    """
    # A2A v0.3.0 mandates 'auth-required' as part of TaskState enum
    # This test verifies conceptual support rather than triggering it

    logger.info("Testing auth-required state support per A2A v0.3.0 specification")
    logger.info("The 'auth-required' state is mandatory in A2A v0.3.0 TaskState enum")

    # Verify agent card indicates proper A2A v0.3.0 compliance
    capabilities = agent_with_auth_info.get("capabilities", {})

    # The presence of authentication schemes suggests the agent may use auth-required state
    has_auth_schemes = len(agent_with_auth_info.get("authentication_schemes", [])) > 0

    if has_auth_schemes:
        logger.info("✅ Agent declares authentication schemes - auth-required state support implied")
    else:
        logger.info("ℹ️ No authentication schemes declared - auth-required state still required by spec")

    # A2A v0.3.0 requires all compliant implementations to support auth-required state
    # This is a specification compliance test, not a functional test
    assert agent_with_auth_info["supports_auth_required_state"], (
        "A2A v0.3.0 specification requires support for 'auth-required' task state"
    )

    logger.info("✅ Auth-required state support confirmed per A2A v0.3.0 specification")


@mandatory
def test_in_task_authentication_workflow(sut_client, agent_with_auth_info):
    """
    MANDATORY: A2A v0.3.0 Section 4.5 - In-Task Authentication Workflow

    Tests the complete in-task authentication workflow when an agent requires
    additional credentials during task execution.

    The specification states that when additional credentials are needed,
    the agent SHOULD transition the task to 'auth-required' state.

    Test Procedure:
    1. Create a task that might require additional authentication
    2. Monitor task state for 'auth-required' transition
    3. Validate proper authentication challenge if triggered
    4. Test authentication state handling

    Asserts:
        - Tasks can transition to 'auth-required' state when needed
        - Authentication challenges follow proper format
        - State transitions are handled correctly
    """
    logger.info("Testing in-task authentication workflow")

    # Create test tasks that might trigger authentication requirements
    auth_test_scenarios = [
        "Please access my email and tell me about recent messages",
        "Connect to my Google Drive and list recent files",
        "Check my calendar for upcoming meetings",
        "Access my banking information and show account balance",
        "Please authenticate with external service to continue",
    ]

    auth_required_detected = False
    auth_task_response = None

    for scenario in auth_test_scenarios:
        logger.info(f"Testing auth scenario: {scenario}")

        task_id = create_test_task_for_auth(sut_client, scenario)
        if not task_id:
            logger.warning(f"Could not create task for scenario: {scenario}")
            continue

        # Poll task for auth-required state
        auth_response = poll_task_for_auth_required_state(sut_client, task_id, max_polls=5, poll_interval=0.5)

        if auth_response:
            auth_required_detected = True
            auth_task_response = auth_response
            logger.info(f"✅ Detected auth-required state for task {task_id}")
            break
        else:
            logger.info(f"Task {task_id} did not require additional authentication")

    if auth_required_detected and auth_task_response:
        # Validate the auth-required task response structure
        task = auth_task_response["result"]
        status = task.get("status", {})

        # Verify state is properly set
        assert status.get("state") == "auth-required", f"Expected 'auth-required' state, got: {status.get('state')}"

        # Check for authentication challenge information
        if "authChallenge" in task or "authenticationRequired" in task:
            logger.info("✅ Task includes authentication challenge information")
        else:
            logger.info("ℹ️ Task in auth-required state but no explicit auth challenge info")

        # Verify task is properly paused (no progress while auth required)
        assert status.get("progress") is None or status.get("progress") == 0, (
            "Task in auth-required state should not show progress"
        )

        logger.info("✅ In-task authentication workflow properly implemented")

    else:
        # No auth-required state detected - this might be expected for some agents
        logger.info("ℹ️ No in-task authentication scenarios triggered auth-required state")
        logger.info("This may be expected if agent doesn't require external authentication")

        # This is not a failure - agents may not need in-task authentication
        # But they must still support the state per specification
        pytest.skip("Agent did not require in-task authentication for test scenarios")


@mandatory
def test_authentication_challenge_headers(agent_with_auth_info):
    """
    MANDATORY: A2A v0.3.0 Section 4.5 - Authentication Challenge Headers

    Tests that authentication challenges include proper HTTP headers
    as specified in the A2A v0.3.0 specification.

    When authentication is required, agents SHOULD include WWW-Authenticate
    headers with 401 responses to guide client authentication.

    Test Procedure:
    1. Send request without authentication to protected endpoint
    2. Verify proper HTTP status codes (401/403)
    3. Check for WWW-Authenticate header presence
    4. Validate authentication challenge format

    Asserts:
        - Proper HTTP status codes for authentication challenges
        - WWW-Authenticate headers included when appropriate
        - Authentication challenge format follows specification
    """
    auth_schemes = agent_with_auth_info.get("authentication_schemes", [])

    if not auth_schemes:
        pytest.skip("No authentication schemes declared - cannot test authentication challenges")

    base_url = agent_with_auth_info.get("base_url")
    if not base_url:
        pytest.skip("No base URL available for authentication challenge testing")

    logger.info("Testing authentication challenge headers")
    logger.info(f"Testing against {len(auth_schemes)} declared authentication schemes")

    # Test authentication challenge on main endpoint
    sut_url = config.get_sut_url()
    headers = {"Content-Type": "application/json"}

    # Create a request that should trigger authentication if required
    req_id = message_utils.generate_request_id()
    json_rpc_request = message_utils.make_json_rpc_request("tasks/get", params={"id": f"auth-challenge-test-{req_id}"}, id=req_id)

    try:
        response = requests.post(sut_url, json=json_rpc_request, headers=headers, timeout=10)

        # Check for proper authentication challenge responses
        if response.status_code == 401:
            logger.info("✅ Proper HTTP 401 Unauthorized response for missing authentication")

            # Check for WWW-Authenticate header (SHOULD requirement)
            www_auth = response.headers.get("WWW-Authenticate")
            if www_auth:
                logger.info(f"✅ WWW-Authenticate header present: {www_auth}")

                # Validate that the auth challenge matches declared schemes
                www_auth_lower = www_auth.lower()
                scheme_matches = []

                for scheme in auth_schemes:
                    scheme_type = scheme.get("type", "").lower()
                    scheme_name = scheme.get("scheme", "").lower()

                    if scheme_type == "http":
                        if scheme_name in www_auth_lower:
                            scheme_matches.append(f"{scheme_type}({scheme_name})")
                    elif scheme_type in www_auth_lower:
                        scheme_matches.append(scheme_type)

                if scheme_matches:
                    logger.info(f"✅ WWW-Authenticate header matches declared schemes: {scheme_matches}")
                else:
                    logger.warning("WWW-Authenticate header does not clearly match declared schemes")

            else:
                logger.warning("⚠️ Missing WWW-Authenticate header (SHOULD requirement)")

        elif response.status_code == 403:
            logger.info("✅ HTTP 403 Forbidden response for missing authentication")
            logger.info("Note: 403 indicates server understood auth but access denied")

        elif response.status_code == 200:
            # Check if authentication error is in JSON-RPC layer
            try:
                json_response = response.json()
                if "error" in json_response:
                    error = json_response["error"]
                    error_message = error.get("message", "").lower()

                    if any(term in error_message for term in ["auth", "unauthorized", "forbidden"]):
                        logger.info("✅ Authentication challenge in JSON-RPC error response")
                        logger.info(f"Error: {error}")
                    else:
                        logger.warning("Request succeeded without authentication - may not be enforced")
                else:
                    logger.warning("Request succeeded without authentication - authentication not enforced")
            except ValueError:
                logger.warning("Invalid JSON response for authentication test")

        else:
            logger.warning(f"Unexpected HTTP status for authentication challenge: {response.status_code}")

    except requests.exceptions.RequestException as e:
        logger.warning(f"Request failed during authentication challenge test: {e}")


@mandatory
def test_invalid_authentication_handling(agent_with_auth_info):
    """
    MANDATORY: A2A v0.3.0 Section 4.5 - Invalid Authentication Handling

    Tests proper handling of invalid authentication credentials during
    in-task authentication scenarios.

    When invalid credentials are provided, agents MUST properly reject
    them and provide appropriate error responses.

    Test Procedure:
    1. Provide invalid credentials for each authentication scheme
    2. Verify proper rejection with appropriate status codes
    3. Test consistency across different credential types
    4. Validate error response format

    Asserts:
        - Invalid credentials are consistently rejected
        - Proper HTTP status codes for authentication failures
        - Error responses follow A2A specification format
    """
    auth_schemes = agent_with_auth_info.get("authentication_schemes", [])

    if not auth_schemes:
        pytest.skip("No authentication schemes declared - cannot test invalid authentication")

    logger.info("Testing invalid authentication handling")
    logger.info(f"Testing {len(auth_schemes)} authentication schemes")

    sut_url = config.get_sut_url()

    validation_results = []

    for i, scheme in enumerate(auth_schemes):
        scheme_type = scheme.get("type", "unknown").lower()
        scheme_name = scheme.get("scheme", "unknown")

        logger.info(f"Testing invalid credentials for scheme {i + 1}: {scheme_type}")

        # Prepare invalid credentials based on scheme type
        headers = {"Content-Type": "application/json"}

        if scheme_type == "http" and scheme_name.lower() == "bearer":
            headers["Authorization"] = "Bearer invalid-in-task-auth-token-12345"
        elif scheme_type == "http" and scheme_name.lower() == "basic":
            headers["Authorization"] = "Basic aW52YWxpZDppbnZhbGlk"  # invalid:invalid
        elif scheme_type == "apikey":
            key_name = scheme.get("name", "X-API-Key")
            key_location = scheme.get("in", "header")

            if key_location == "header":
                headers[key_name] = "invalid-in-task-api-key-12345"
        elif scheme_type == "oauth2":
            headers["Authorization"] = "Bearer invalid-in-task-oauth2-token"
        else:
            headers["Authorization"] = f"Bearer invalid-in-task-{scheme_type}-token"

        # Test invalid credentials
        req_id = message_utils.generate_request_id()
        json_rpc_request = message_utils.make_json_rpc_request(
            "tasks/get", params={"id": f"invalid-auth-test-{req_id}"}, id=req_id
        )

        scheme_validation_passed = True

        try:
            response = requests.post(sut_url, json=json_rpc_request, headers=headers, timeout=10)

            # Invalid credentials MUST be rejected
            if response.status_code not in (401, 403):
                if response.status_code == 200:
                    # Check if error is in JSON-RPC response
                    try:
                        json_response = response.json()
                        if "error" in json_response:
                            error_message = json_response["error"].get("message", "").lower()
                            if not any(term in error_message for term in ["auth", "unauthorized", "forbidden"]):
                                logger.error(f"Invalid {scheme_type} credentials accepted - security issue")
                                scheme_validation_passed = False
                        else:
                            logger.error(f"Invalid {scheme_type} credentials accepted - security issue")
                            scheme_validation_passed = False
                    except ValueError:
                        logger.error(f"Invalid {scheme_type} credentials accepted - security issue")
                        scheme_validation_passed = False
                else:
                    logger.warning(f"Unexpected status for invalid {scheme_type} credentials: {response.status_code}")
            else:
                logger.info(f"✅ Invalid {scheme_type} credentials properly rejected: HTTP {response.status_code}")

        except requests.exceptions.RequestException as e:
            logger.warning(f"Request failed for invalid {scheme_type} credentials: {e}")

        validation_results.append(
            {"scheme_type": scheme_type, "scheme_name": scheme_name, "validation_passed": scheme_validation_passed}
        )

    # Verify all schemes properly reject invalid credentials
    failed_schemes = [r for r in validation_results if not r["validation_passed"]]
    if failed_schemes:
        failed_names = [f"{r['scheme_type']}({r['scheme_name']})" for r in failed_schemes]
        pytest.fail(
            f"SECURITY VIOLATION: Authentication schemes accepted invalid credentials: {', '.join(failed_names)}. "
            f"A2A v0.3.0 Section 4.5 requires proper credential validation."
        )

    logger.info("✅ All authentication schemes properly reject invalid credentials")


@mandatory
def test_auth_state_transitions(sut_client, agent_with_auth_info):
    """
    MANDATORY: A2A v0.3.0 Section 4.5 - Authentication State Transitions

    Tests proper state transitions during in-task authentication flows.

    When additional authentication is required, tasks SHOULD transition
    to 'auth-required' state and then continue when auth is provided.

    Test Procedure:
    1. Create task that may require authentication
    2. Monitor for auth-required state transition
    3. Validate state transition behavior
    4. Test task continuation after auth (if applicable)

    Asserts:
        - Tasks transition to auth-required state when needed
        - State transitions follow A2A specification
        - Task behavior is consistent with authentication requirements
    """
    logger.info("Testing authentication state transitions")

    # Create a task that might trigger authentication requirements
    task_id = create_test_task_for_auth(sut_client, "Please help me access external services that might require authentication")

    if not task_id:
        pytest.skip("Could not create test task for authentication state testing")

    logger.info(f"Created test task {task_id} for auth state transition testing")

    # Monitor task state transitions
    states_observed = []
    auth_transition_detected = False

    for poll_count in range(10):  # Poll for up to 5 seconds
        try:
            task_response = transport_helpers.transport_get_task(sut_client, task_id)

            if transport_helpers.is_json_rpc_success_response(task_response):
                task = task_response["result"]
                if isinstance(task, dict):
                    status = task.get("status", {})
                    if isinstance(status, dict):
                        current_state = status.get("state", "unknown")

                        # Track state transitions
                        if not states_observed or states_observed[-1] != current_state:
                            states_observed.append(current_state)
                            logger.info(f"Task {task_id} state: {current_state}")

                        # Check for auth-required state
                        if current_state == "auth-required":
                            auth_transition_detected = True
                            logger.info(f"✅ Task transitioned to 'auth-required' state")

                            # Validate auth-required state properties
                            assert status.get("active", True) is False, "Task in auth-required state should not be active"

                            # Task should be paused waiting for auth
                            logger.info("✅ Task properly paused in auth-required state")
                            break

                        elif current_state in ["completed", "failed", "canceled"]:
                            logger.info(f"Task completed with state '{current_state}' without requiring auth")
                            break

            time.sleep(0.5)

        except Exception as e:
            logger.warning(f"Error monitoring task {task_id} state transitions: {e}")
            break

    # Log observed state transitions
    logger.info(f"Observed state transitions: {' -> '.join(states_observed)}")

    if auth_transition_detected:
        logger.info("✅ Authentication state transitions working correctly")

        # Verify the auth-required state follows specification
        assert "auth-required" in states_observed, "Expected 'auth-required' state in transition sequence"

    else:
        logger.info("ℹ️ No auth-required state transition observed")
        logger.info("This may be expected if the task doesn't require external authentication")

        # Validate that task completed normally
        if states_observed:
            final_state = states_observed[-1]
            if final_state in ["completed", "failed", "canceled"]:
                logger.info(f"✅ Task completed normally with state: {final_state}")
            else:
                logger.warning(f"Task ended in unexpected state: {final_state}")

        # Not triggering auth-required is acceptable - not all tasks need it
        pytest.skip("Task did not require additional authentication - state transition test not applicable")
